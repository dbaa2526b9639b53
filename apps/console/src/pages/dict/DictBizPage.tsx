import { resources } from "@meterline/contracts";
import { DictLayout } from "./DictLayout.tsx";

/** The business dictionary menu (resource `dictBiz`): its dictionaries and their items side by side. */
export default function DictBizPage() {
  return <DictLayout orientation="horizontal" def={resources.dictBiz} />;
}
