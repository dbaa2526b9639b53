import { SearchOutlined } from "@ant-design/icons";
import { Empty, Input, Popover, Spin, Typography } from "antd";
import { type KeyboardEvent, useState } from "react";
import { useNavigate } from "react-router";
import { useT } from "../../../i18n/index.tsx";
import { SearchHitList } from "./SearchHitList.tsx";
import type { SearchHit } from "./search-hits.ts";
import { useGlobalSearch } from "./useGlobalSearch.ts";

/**
 * The top bar's search box: rooms (with their building), owners, meters and collectors as the
 * operator types, grouped; ↑/↓ move, Enter or a click opens the detail page, Esc closes.
 */
export function GlobalSearchBox() {
  const t = useT();
  const navigate = useNavigate();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [cursor, setCursor] = useState(0);
  const { hits, loading, failed, tooShort } = useGlobalSearch(text);

  const choose = (hit: SearchHit | undefined) => {
    if (!hit) return;
    setOpen(false);
    setText("");
    navigate(hit.href);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown") setCursor((value) => Math.min(value + 1, hits.length - 1));
    else if (event.key === "ArrowUp") setCursor((value) => Math.max(value - 1, 0));
    else if (event.key === "Enter") choose(hits[cursor]);
    else if (event.key === "Escape") {
      setOpen(false);
      event.currentTarget.blur();
    } else return;
    event.preventDefault();
  };

  const panel = (
    <div className="ml-global-search-panel" data-testid="global-search-panel">
      {hits.length > 0 ? (
        <SearchHitList hits={hits} cursor={cursor} onChoose={choose} onHover={setCursor} />
      ) : loading ? (
        <Spin size="small" className="ml-global-search-wait" />
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t(
            failed ? "globalSearch.failed" : tooShort ? "globalSearch.typeMore" : "globalSearch.empty",
          )}
        />
      )}
      <Typography.Text type="secondary" className="ml-search-hint">
        {t("search.hint")}
      </Typography.Text>
    </div>
  );

  return (
    <Popover
      open={open && text.trim() !== ""}
      content={panel}
      placement="bottomRight"
      arrow={false}
      destroyOnHidden
    >
      <Input
        type="search"
        className="ml-global-search"
        prefix={<SearchOutlined />}
        placeholder={t("globalSearch.placeholder")}
        aria-label={t("globalSearch.title")}
        value={text}
        allowClear
        onChange={(event) => {
          setText(event.target.value);
          // New text, new answer: start again at its first hit.
          setCursor(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        data-testid="global-search-input"
      />
    </Popover>
  );
}
