-- Report definitions (contract §15, blade_report_file): `content` holds a definition built in the
-- console (dataset, group keys, measures, filters, chart), never SQL; the server checks it against
-- its reviewed catalogue each time it is saved or run. A row without tenant is a shipped template
-- that every tenant reads and none may change.
create table blade_report_file (
  id bigint primary key,
  tenant_id varchar(12),
  name varchar(100) not null,
  content bytea not null,
  create_user bigint,
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now(),
  is_deleted integer not null default 0
);
create index blade_report_file_tenant on blade_report_file (tenant_id, is_deleted);
