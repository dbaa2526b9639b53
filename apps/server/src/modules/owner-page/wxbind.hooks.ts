import { badRequest } from "../../contract/errors.ts";
import { columnByName } from "../../crud/columns.ts";
import type { ResourceHooks } from "../../crud/hooks.ts";

/**
 * A binding names who is bound: a WeChat openid or a phone (the owner page's two sign-ins). A new
 * row without either, or an edit that blanks both, would bind nobody.
 */
export const wxBindHooks: ResourceHooks = {
  async beforeWrite({ def }, values, id) {
    const openId = columnByName(def, "openId")!;
    const phone = columnByName(def, "phone")!;
    const blank = (value: unknown) => value === undefined || value === null || String(value).trim() === "";
    const named = !blank(values.get(openId)) || !blank(values.get(phone));
    const bothGiven = values.has(openId) && values.has(phone);
    if (!named && (id === undefined || bothGiven)) throw badRequest("openId: OpenID 与手机号至少填写一项");
  },
};
