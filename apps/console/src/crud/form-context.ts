import type { ResourceDef } from "@meterline/contracts";
import { createContext, useContext } from "react";

/** What the controls of a resource form know about the form they are in. */
export interface ResourceFormScope {
  def: ResourceDef;
  /** A search offers every row of a link; a form may offer only what is still free to link. */
  purpose: "form" | "search";
  /** The edited or viewed row as the server answered it: the labels of its links live here. */
  row?: Record<string, unknown>;
}

const ResourceFormContext = createContext<ResourceFormScope | null>(null);

export const ResourceFormProvider = ResourceFormContext.Provider;

/** The scope of the surrounding resource form or search; null outside of one. */
export const useResourceForm = () => useContext(ResourceFormContext);
