import { DictLayout } from "./DictLayout.tsx";

/** /dict-vertical/index: dictionaries above, the chosen one's items below. */
export default function DictVerticalPage() {
  return <DictLayout orientation="vertical" />;
}
