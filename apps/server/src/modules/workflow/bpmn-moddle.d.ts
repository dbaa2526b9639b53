// bpmn-moddle ships declarations its package exports do not point at: the part the parser uses.
declare module "bpmn-moddle" {
  export class BpmnModdle {
    fromXML(xml: string): Promise<{ rootElement: unknown; warnings: { message: string }[] }>;
  }
}
