import { DictKindLayout } from "./DictKindLayout.tsx";

/** /dict-vertical/index: dictionaries above, the chosen one's items below. */
export default function DictVerticalPage() {
  return <DictKindLayout orientation="vertical" />;
}
