import { badRequest } from "../../contract/errors.ts";
import { columnByName } from "../../crud/columns.ts";
import type { ResourceHooks } from "../../crud/hooks.ts";
import { ENDPOINT_HTTPS_ONLY, endpointAllowed } from "./sms-provider.ts";

/** SMS provider settings: a production server stores only https provider addresses. */
export const smsHooks: ResourceHooks = {
  async beforeWrite({ def }, values) {
    const endpoint = values.get(columnByName(def, "endpoint")!);
    if (typeof endpoint === "string" && !endpointAllowed(endpoint)) throw badRequest(ENDPOINT_HTTPS_ONLY);
  },
};
