-- Registry tables with domain rules, beside the plain ones the resource definitions create.

-- Owners in owner groups: an owner is in at most one group at a time (spec §7 ownerGroup).
create table pms_owner_group_rel (
  id bigint primary key,
  tenant_id varchar(12) not null,
  group_id bigint not null,
  owner_id bigint not null,
  create_user bigint,
  create_time timestamptz not null default now()
);
create unique index pms_owner_group_rel_owner on pms_owner_group_rel (owner_id);
create index pms_owner_group_rel_group on pms_owner_group_rel (group_id);

-- The change log of owners (spec §7 owner/getOwnerLog): every change of an owner, a room link or
-- a balance-relevant field, written by the server in the same transaction as the change.
create table pms_owner_log (
  id bigint primary key,
  tenant_id varchar(12) not null,
  owner_id bigint not null,
  action varchar(32) not null,
  content text not null,
  create_user bigint,
  create_user_name varchar(64),
  create_time timestamptz not null default now()
);
create index pms_owner_log_owner on pms_owner_log (tenant_id, owner_id, create_time desc);
