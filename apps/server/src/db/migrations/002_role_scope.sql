-- Which data-scope (category 1) and API-scope (category 2) rules each role is granted.
create table sys_role_scope (
  id bigint primary key,
  scope_category integer not null check (scope_category in (1, 2)),
  scope_id bigint not null,
  role_id bigint not null
);
create unique index sys_role_scope_pair on sys_role_scope (role_id, scope_category, scope_id);
