import Modeler from "bpmn-js/lib/Modeler";
import { useEffect, useRef } from "react";
import "bpmn-js/dist/assets/diagram-js.css";
import "bpmn-js/dist/assets/bpmn-js.css";
import "bpmn-js/dist/assets/bpmn-font/css/bpmn-embedded.css";
import { chineseModule } from "./bpmn-zh.ts";

/** What the designer page reads and changes through the modeler. */
export interface ModelerApi {
  saveXml(): Promise<string>;
  /** Sets properties of an element (the process when id is null); flowable:* land as attributes. */
  update(id: string | null, properties: Record<string, string | undefined>): void;
}

/** The part of an element the property panel shows. */
export interface Selected {
  id: string;
  type: string;
  name: string;
  assignee: string;
  candidateGroups: string;
}

interface BusinessObject {
  id: string;
  name?: string;
  $type: string;
  $attrs?: Record<string, string>;
}
interface Shape {
  id: string;
  type: string;
  businessObject: BusinessObject;
}

const attribute = (bo: BusinessObject, local: string) => {
  for (const [name, value] of Object.entries(bo.$attrs ?? {})) if (name.endsWith(`:${local}`)) return value;
  return "";
};

const describe = (shape: Shape): Selected => ({
  id: shape.businessObject.id,
  type: shape.type,
  name: shape.businessObject.name ?? "",
  assignee: attribute(shape.businessObject, "assignee"),
  candidateGroups: attribute(shape.businessObject, "candidateGroups"),
});

/**
 * bpmn-js's modeler (palette, context pad, replace menu, direct label editing) on a loaded XML,
 * in its own chunk with its styles. Reports the selected element (or the process, as `null` id
 * of an empty selection) and every change, so the page can show what is unsaved.
 */
export default function ModelerCanvas({
  xml,
  language,
  onReady,
  onFailed,
  onSelect,
  onChange,
}: {
  xml: string;
  /** The palette and menus speak the console's language of the moment the diagram opens. */
  language: "zh" | "en";
  onReady: (api: ModelerApi | null) => void;
  onFailed: (reason: string) => void;
  onSelect: (selected: Selected | null, process: Selected) => void;
  onChange: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  // The callbacks change with every render of the page; the modeler is built once per XML.
  const handlers = useRef({ onReady, onFailed, onSelect, onChange });
  handlers.current = { onReady, onFailed, onSelect, onChange };

  // A language switch keeps the open diagram (and its unsaved changes); the next one follows it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: language is read once per diagram
  useEffect(() => {
    if (!box.current) return;
    const modeler = new Modeler({
      container: box.current,
      keyboard: { bindTo: box.current },
      additionalModules: language === "zh" ? [chineseModule] : [],
    });
    const canvas = modeler.get<{ getRootElement(): Shape; zoom(l: "fit-viewport", c: "auto"): void }>(
      "canvas",
    );
    const registry = modeler.get<{ get(id: string): Shape | undefined }>("elementRegistry");
    const modeling = modeler.get<{ updateProperties(e: Shape, p: Record<string, unknown>): void }>(
      "modeling",
    );
    const selection = modeler.get<{ get(): Shape[] }>("selection");
    const events = modeler.get<{ on(event: string, fn: () => void): void }>("eventBus");
    let live = true;
    const report = () => {
      if (!live) return;
      const [one, more] = selection.get();
      const root = canvas.getRootElement();
      handlers.current.onSelect(one && !more && one.id !== root.id ? describe(one) : null, describe(root));
    };
    modeler
      .importXML(xml)
      .then(() => {
        if (!live) return;
        canvas.zoom("fit-viewport", "auto");
        events.on("selection.changed", report);
        events.on("commandStack.changed", () => {
          report();
          if (live) handlers.current.onChange();
        });
        report();
        handlers.current.onReady({
          saveXml: async () => (await modeler.saveXML({ format: true })).xml ?? "",
          update: (id, properties) => {
            const element = id === null ? canvas.getRootElement() : registry.get(id);
            if (!element) return;
            // Empty text removes an attribute rather than writing it empty.
            const values: Record<string, unknown> = {};
            for (const [key, value] of Object.entries(properties)) values[key] = value?.trim() || undefined;
            modeling.updateProperties(element, values);
          },
        });
      })
      .catch((error: unknown) => {
        if (live) handlers.current.onFailed(error instanceof Error ? error.message : String(error));
      });
    return () => {
      live = false;
      handlers.current.onReady(null);
      modeler.destroy();
    };
  }, [xml]);

  return <div ref={box} className="ml-flow-modeler" data-testid="flow-modeler" />;
}
