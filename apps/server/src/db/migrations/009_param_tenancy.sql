-- Parameters become per tenant: the platform tenant's rows are the defaults and a tenant's own row
-- of a key overrides it for that tenant. Platform-wide keys (security, retention) take no tenant
-- values; a new key is platform-wide unless marked otherwise, so nothing becomes tenant-editable
-- by accident. The table is created here when new so the columns get their defaults before the
-- seed rows arrive; the definition's sync adds the rest.
create table if not exists sys_param (id bigint primary key);
alter table sys_param add column if not exists tenant_id varchar(12) not null default '000000';
alter table sys_param add column if not exists platform_wide smallint not null default 1;
-- Keys are unique per tenant now: the sync recreates the index with the tenant leading.
drop index if exists sys_param_param_key_uq;
