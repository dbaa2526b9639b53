import { Tag, Typography } from "antd";
import { useT } from "../../../i18n/index.tsx";
import { HIT_GROUPS, type SearchHit } from "./search-hits.ts";

interface Props {
  hits: readonly SearchHit[];
  /** Index into `hits` of the highlighted one, or -1. */
  cursor: number;
  /** Added to each hit's index for the cursor (the menu search lists its menus first). */
  offset?: number;
  onChoose: (hit: SearchHit) => void;
  onHover: (index: number) => void;
}

/** The search's hits under their group headings (rooms, owners, meters, collectors). */
export function SearchHitList({ hits, cursor, offset = 0, onChoose, onHover }: Props) {
  const t = useT();
  return (
    <>
      {HIT_GROUPS.map(({ kind, label }) => {
        const group = hits.map((hit, index) => ({ hit, index })).filter(({ hit }) => hit.kind === kind);
        if (group.length === 0) return null;
        return (
          <section
            key={kind}
            className="ml-hit-group"
            aria-label={t(label)}
            data-testid={`search-group-${kind}`}
          >
            <Typography.Text type="secondary" className="ml-hit-heading">
              {t(label)}
            </Typography.Text>
            <ul className="ml-search-results">
              {group.map(({ hit, index }) => {
                const active = index + offset === cursor;
                return (
                  <li key={hit.key}>
                    <button
                      type="button"
                      aria-current={active}
                      className={active ? "is-active" : undefined}
                      onMouseEnter={() => onHover(index + offset)}
                      onFocus={() => onHover(index + offset)}
                      // Keeps the box's input focused until the click lands (it closes on blur).
                      onMouseDown={(event) => event.preventDefault()}
                      onClick={() => onChoose(hit)}
                      data-testid="search-hit"
                      data-kind={hit.kind}
                      data-href={hit.href}
                    >
                      <span className="ml-hit-title">{hit.title}</span>
                      {hit.tag ? <Tag>{t(hit.tag)}</Tag> : null}
                      <Typography.Text type="secondary">{hit.detail}</Typography.Text>
                    </button>
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </>
  );
}
