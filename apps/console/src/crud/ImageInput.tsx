import { DeleteOutlined, PictureOutlined, UploadOutlined } from "@ant-design/icons";
import { Avatar, Button, Image, Space, Upload } from "antd";
import { IMAGE_ACCEPT } from "../components/image-rules.ts";
import { useImageUpload } from "../components/useImageUpload.ts";
import { useT } from "../i18n/index.tsx";

interface Props {
  /** The stored link of the image; empty when there is none. */
  value?: string;
  onChange?: (link: string) => void;
  disabled?: boolean;
  id?: string;
}

const THUMB = 64;

/**
 * The control of an `image` field: a thumbnail of the current link (click to enlarge), an upload
 * that stores the picked file and keeps its link, and a button that clears it.
 */
export function ImageInput({ value, onChange, disabled, id, ...rest }: Props) {
  const t = useT();
  const { uploading, beforeUpload } = useImageUpload((link) => onChange?.(link));
  return (
    <Space id={id} {...rest} data-testid="image-input">
      {value ? (
        <Image
          src={value}
          width={THUMB}
          height={THUMB}
          style={{ objectFit: "cover" }}
          alt=""
          data-testid="image-preview"
        />
      ) : (
        <Avatar shape="square" size={THUMB} icon={<PictureOutlined />} />
      )}
      <Upload accept={IMAGE_ACCEPT} showUploadList={false} beforeUpload={beforeUpload} disabled={disabled}>
        <Button icon={<UploadOutlined />} loading={uploading} disabled={disabled} data-testid="image-upload">
          {t("crud.imagePick")}
        </Button>
      </Upload>
      {value && (
        <Button
          icon={<DeleteOutlined />}
          onClick={() => onChange?.("")}
          disabled={disabled}
          data-testid="image-clear"
        >
          {t("crud.imageClear")}
        </Button>
      )}
    </Space>
  );
}
