/** Hands a model's XML to the browser as `<key>.bpmn20.xml`, the name deploy-upload accepts back. */
export function saveXmlFile(key: string, xml: string): void {
  const url = URL.createObjectURL(new Blob([xml], { type: "application/xml" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `${key || "process"}.bpmn20.xml`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The click has started the download; the object URL is not needed afterwards.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
