import xss from "xss";

// xss is CommonJS: take its members from the default export so both Node and the bundler resolve them.
const { FilterXSS, getDefaultWhiteList, safeAttrValue } = xss as unknown as typeof import("xss");

/**
 * The one allowlist for rich text (notices), applied by the server before storing and by the console
 * before showing, so neither trusts the other. Scripts, event handlers and javascript: URLs go.
 */
const allowList = {
  ...getDefaultWhiteList(),
  span: ["style"],
  p: ["style"],
  div: ["style"],
  img: ["src", "alt", "title", "width", "height"],
};

const filter = new FilterXSS({
  whiteList: allowList,
  stripIgnoreTag: true,
  stripIgnoreTagBody: ["script", "style", "iframe", "object", "embed"],
  safeAttrValue(tag, name, value, cssFilter) {
    if (
      (name === "src" || name === "href") &&
      !/^(https?:|\/|data:image\/(png|jpe?g|gif|webp);)/i.test(value.trim())
    ) {
      return "";
    }
    return safeAttrValue(tag, name, value, cssFilter);
  },
});

export function sanitizeRichText(html: string): string {
  return filter.process(html);
}
