// The part of pdfkit (which ships no types) the report PDF uses.
declare module "pdfkit" {
  import type { Readable } from "node:stream";

  interface TextOptions {
    width?: number;
    height?: number;
    lineBreak?: boolean;
    ellipsis?: boolean | string;
    align?: "left" | "right" | "center";
  }

  class PDFDocument extends Readable {
    constructor(options?: {
      size?: string;
      layout?: "portrait" | "landscape";
      margin?: number;
      info?: { Title?: string; Creator?: string };
      bufferPages?: boolean;
    });
    page: {
      width: number;
      height: number;
      margins: { top: number; bottom: number; left: number; right: number };
    };
    y: number;
    registerFont(name: string, src: string | Buffer, family?: string): this;
    font(name: string): this;
    fontSize(size: number): this;
    text(text: string, x?: number, y?: number, options?: TextOptions): this;
    addPage(): this;
    moveTo(x: number, y: number): this;
    lineTo(x: number, y: number): this;
    lineWidth(width: number): this;
    stroke(color?: string): this;
    end(): void;
  }
  export default PDFDocument;
}
