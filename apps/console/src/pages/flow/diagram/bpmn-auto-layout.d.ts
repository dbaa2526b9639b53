// bpmn-auto-layout ships no types; this is the one call the diagram uses.
declare module "bpmn-auto-layout" {
  /** The XML with a diagram (BPMNDI) laid out for its first process. */
  export function layoutProcess(xml: string): Promise<string>;
}
