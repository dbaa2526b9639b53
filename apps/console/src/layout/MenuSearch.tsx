import { SearchOutlined } from "@ant-design/icons";
import { Empty, Input, Modal, Typography } from "antd";
import { type KeyboardEvent, useEffect, useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { useI18n } from "../i18n/index.tsx";
import { useConsole } from "../store/useConsole.ts";
import { MenuIcon } from "./icon-registry.tsx";
import { searchLeaves } from "./menu-model.ts";
import {
  endTypeahead,
  followTypeahead,
  SEARCH_INPUT_ID,
  stopCapture,
  type Typeahead,
} from "./search-typeahead.ts";
import { SearchHitList } from "./top/global-search/SearchHitList.tsx";
import { searchKeyword, useGlobalSearch } from "./top/global-search/useGlobalSearch.ts";
import { useOpenMenu } from "./useOpenMenu.ts";

/**
 * The menu-search overlay (spec §2): prefix match on menu names, case-insensitive, over every leaf
 * of the full menu, and below them the global search's rooms, owners, meters and collectors.
 * ↑/↓ move through both, Enter or click opens, Esc closes.
 */
export function MenuSearch({ open, onClose }: { open: boolean; onClose: () => void }) {
  const menuAll = useConsole((state) => state.menuAll);
  const { t, tr } = useI18n();
  const openMenu = useOpenMenu();
  const navigate = useNavigate();
  const [text, setText] = useState("");
  const [cursor, setCursor] = useState(0);
  // Enter typed before the box had focus: the first hit opens once the hits for the text are in.
  const [enterPending, setEnterPending] = useState(false);
  const results = useMemo(
    () => searchLeaves(menuAll, text, (item) => tr(item.i18n, item.name)),
    [menuAll, text, tr],
  );
  // Only while open: the overlay stays mounted between uses.
  const search = useGlobalSearch(open ? text : "");
  const { hits, loading } = search;
  const count = results.length + hits.length;

  useEffect(() => {
    if (!open) return;
    const apply = (typed: Typeahead) => {
      setText(typed.text);
      setCursor(0);
      setEnterPending(typed.enter);
    };
    apply(followTypeahead(apply));
    return endTypeahead;
  }, [open]);

  const choose = (index: number) => {
    const leaf = results[index];
    const hit = hits[index - results.length];
    if (leaf) {
      onClose();
      openMenu(leaf);
    } else if (hit) {
      onClose();
      navigate(hit.href);
    }
  };

  // The hits answer the text typed (not an older one) and nothing more is on its way.
  const settled = !loading && search.keyword === searchKeyword(text);
  useEffect(() => {
    if (!enterPending || !settled) return;
    setEnterPending(false);
    // Enter on nothing typed opens nothing (it used to open the first menu, 首页).
    if (count > 0 && text.trim() !== "") choose(0);
  });

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown") setCursor((value) => Math.min(value + 1, count - 1));
    else if (event.key === "ArrowUp") setCursor((value) => Math.max(value - 1, 0));
    else if (event.key === "Enter") choose(cursor);
    else return;
    event.preventDefault();
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      closable={false}
      title={null}
      destroyOnHidden
      width={560}
    >
      <div data-testid="menu-search">
        <Input
          autoFocus
          size="large"
          prefix={<SearchOutlined />}
          placeholder={t("search.placeholder")}
          aria-label={t("search.title")}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setCursor(0);
          }}
          onKeyDown={onKeyDown}
          onFocus={stopCapture}
          data-testid={SEARCH_INPUT_ID}
        />
        {count === 0 && !loading ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("search.empty")} />
        ) : null}
        {results.length > 0 ? (
          <ul className="ml-search-results" aria-label={t("search.title")}>
            {results.map((leaf, index) => (
              <li key={leaf.id}>
                <button
                  type="button"
                  aria-current={index === cursor}
                  className={index === cursor ? "is-active" : undefined}
                  onMouseEnter={() => setCursor(index)}
                  onFocus={() => setCursor(index)}
                  onClick={() => choose(index)}
                  data-testid="menu-search-result"
                  data-path={leaf.path}
                >
                  <MenuIcon source={leaf.icon} />
                  <span data-testid="menu-search-label">{tr(leaf.i18n, leaf.name)}</span>
                  <Typography.Text type="secondary">{leaf.href || leaf.path}</Typography.Text>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <SearchHitList
          hits={hits}
          cursor={cursor}
          offset={results.length}
          onChoose={(hit) => choose(results.length + hits.indexOf(hit))}
          onHover={setCursor}
        />
        <Typography.Text type="secondary" className="ml-search-hint">
          {t("search.hint")}
        </Typography.Text>
      </div>
    </Modal>
  );
}
