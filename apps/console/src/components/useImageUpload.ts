import { useState } from "react";
import { api, reportNetworkError } from "../app/api.ts";
import { useFeedback } from "../app/feedback.ts";
import { useT } from "../i18n/index.tsx";
import { imageProblem } from "./image-rules.ts";

/**
 * Checks a picked image, sends it to put-file with `purpose=avatar` (so the server holds it to the
 * same rule) and hands over the served link. `beforeUpload` goes to an antd Upload: the file is
 * sent by our own client (token, errors), never by the Upload component.
 */
export function useImageUpload(onUploaded: (link: string) => void) {
  const t = useT();
  const { message } = useFeedback();
  const [uploading, setUploading] = useState(false);

  const upload = async (file: File) => {
    const problem = imageProblem(file);
    if (problem) {
      message.error(t(problem));
      return;
    }
    setUploading(true);
    try {
      const stored = await api.putFile(file, file.name, "avatar");
      onUploaded(stored.link);
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setUploading(false);
    }
  };

  const beforeUpload = (file: File) => {
    void upload(file);
    return false;
  };
  return { uploading, beforeUpload };
}
