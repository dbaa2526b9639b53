/** A node of GET /api/blade-system/menu/routes (contract §7.2). Ids are strings. */
export interface MenuRoute {
  id: string;
  parentId: string;
  code: string;
  name: string;
  alias: string;
  path: string;
  source: string;
  sort: number;
  category: number;
  action: number;
  /** 1 = open inside the console, 2 = open in a new window (dict yes_no of the menu table). */
  isOpen: number;
  remark: string;
  /** Optional route meta: roles allowed (empty = everyone), keep-alive, i18n key. */
  meta?: { roles?: string[]; keepAlive?: boolean; i18n?: string };
  query?: Record<string, string>;
  children?: MenuRoute[];
}

/** A node of GET /api/blade-system/menu/buttons: leaves carry the permission codes (contract §7.3). */
export interface ButtonNode {
  id: string;
  parentId: string;
  code: string;
  name: string;
  alias: string;
  path: string;
  source: string;
  action: number;
  sort: number;
  children?: ButtonNode[];
}

/** GET /api/blade-system/menu/buttons?fields=code: the same tree with the codes alone. */
export interface ButtonCode {
  code: string;
  children?: ButtonCode[];
}

/** GET /api/blade-system/menu/top-menu (contract §7.4). */
export interface TopMenu {
  id: string;
  tenantId: string;
  code: string;
  name: string;
  source: string;
  sort: number;
}

/** The generic tree node of pickers and grant trees (contract §7.5). */
export interface TreeNode {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
  hasChildren?: boolean;
  children?: TreeNode[];
}
