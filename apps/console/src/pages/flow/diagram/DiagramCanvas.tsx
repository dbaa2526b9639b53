import { layoutProcess } from "bpmn-auto-layout";
import NavigatedViewer from "bpmn-js/lib/NavigatedViewer";
import { useEffect, useRef, useState } from "react";
import "bpmn-js/dist/assets/diagram-js.css";
import "bpmn-js/dist/assets/bpmn-js.css";
import "./diagram.css";
import { useT } from "../../../i18n/index.tsx";

/**
 * XML with a drawing as it is; XML without one (written by hand or by another tool: BPMN allows
 * a process with no diagram interchange, as the shipped processes are) laid out first, so every
 * definition can be shown.
 */
const drawable = (xml: string) =>
  /<(\w+:)?BPMNDiagram[\s>]/.test(xml) ? Promise.resolve(xml) : layoutProcess(xml);

interface Canvas {
  zoom(level: "fit-viewport" | number, center?: "auto"): void;
  addMarker(id: string, marker: string): void;
}
interface Registry {
  get(id: string): unknown;
  filter(fn: (element: Connection) => boolean): Connection[];
}
interface Connection {
  id: string;
  type: string;
  source?: { id: string };
  target?: { id: string };
}

/**
 * A BPMN diagram drawn by bpmn-js's navigated viewer (pan and zoom, no editing), fitted to its
 * box. Nodes passed are marked done, nodes waiting now current; a flow between two reached nodes
 * is marked done too, so the path taken reads at a glance. Loaded in its own chunk with bpmn-js.
 */
export default function DiagramCanvas({
  xml,
  done = [],
  current = [],
  height = 480,
}: {
  xml: string;
  done?: readonly string[];
  current?: readonly string[];
  height?: number;
}) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!box.current) return;
    const viewer = new NavigatedViewer({ container: box.current });
    let live = true;
    drawable(xml)
      .then((drawn) => viewer.importXML(drawn))
      .then(() => {
        if (!live) return;
        setFailure(null);
        const canvas = viewer.get<Canvas>("canvas");
        const registry = viewer.get<Registry>("elementRegistry");
        const mark = (ids: readonly string[], marker: string) => {
          for (const id of ids) if (registry.get(id)) canvas.addMarker(id, marker);
        };
        mark(done, "ml-flow-done");
        mark(current, "ml-flow-current");
        const reached = new Set([...done, ...current]);
        for (const flow of registry.filter((e) => e.type === "bpmn:SequenceFlow")) {
          if (flow.source && flow.target && done.includes(flow.source.id) && reached.has(flow.target.id))
            canvas.addMarker(flow.id, "ml-flow-done");
        }
        canvas.zoom("fit-viewport", "auto");
      })
      .catch((error: unknown) => {
        if (live) setFailure(error instanceof Error ? error.message : String(error));
      });
    return () => {
      live = false;
      viewer.destroy();
    };
  }, [xml, done, current]);

  return (
    <div className="ml-flow-diagram" data-testid="process-diagram">
      {failure ? (
        <div role="alert" className="ml-flow-diagram-failed" data-testid="process-diagram-error">
          {t("flow.diagram.failed", { reason: failure })}
        </div>
      ) : null}
      <div ref={box} className="ml-flow-diagram-canvas" style={{ height }} />
    </div>
  );
}
