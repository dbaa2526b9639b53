import { Tag } from "antd";
import { useT } from "../../i18n/index.tsx";

/**
 * The state of a definition or an instance. Solid dark colours with white text: antd's light preset
 * tags (green on pale green) fall below 4.5:1 contrast at tag size.
 */
const COLOURS = {
  active: "#237804",
  suspended: "#ad4e00",
  running: "#0958d9",
  finished: undefined,
} as const;

const WORDS = {
  active: "flow.active",
  suspended: "flow.suspended",
  running: "work.unfinished",
  finished: "work.finished",
} as const;

export type FlowState = keyof typeof COLOURS;

export function StateTag({ state }: { state: FlowState }) {
  const t = useT();
  return (
    <Tag color={COLOURS[state]} data-state={state}>
      {t(WORDS[state])}
    </Tag>
  );
}
