import { DictKindLayout } from "./DictKindLayout.tsx";

/** /dict-horizontal/index: dictionaries on the left, the chosen one's items on the right. */
export default function DictHorizontalPage() {
  return <DictKindLayout orientation="horizontal" />;
}
