-- Shared-cost apportionment (公摊): a node's common-area usage (and loss) of a month shared to the
-- rooms under it and booked as its own ledger entry type (10), with the run and its lines kept.
alter table pms_ledger drop constraint pms_ledger_entry_type_check;
alter table pms_ledger add constraint pms_ledger_entry_type_check check (entry_type between 1 and 10) not valid;
alter table pms_ledger validate constraint pms_ledger_entry_type_check;

create table pms_apportionment_run (
  id bigint primary key,
  tenant_id varchar(12) not null,
  node_id bigint not null,
  energy_type integer not null,
  month char(7) not null,
  -- 1 waiting for approval, 2 booked, 3 rejected by the approver, 4 reversed.
  state integer not null check (state between 1 and 4),
  -- Usage in 0.01 kWh / m³: the common-area meters', the loss shared, and their sum shared out.
  common_usage bigint not null,
  loss_usage bigint not null,
  shared_usage bigint not null,
  -- What the rooms are charged, in fen (positive).
  total_amount bigint not null,
  approval_instance_id bigint,
  reject_reason varchar(255),
  reverse_reason varchar(255),
  reversed_by varchar(64),
  reversed_time timestamptz,
  create_user bigint,
  creator varchar(64) not null default '',
  create_time timestamptz not null default now()
);
-- A node's month is booked once: a second booking finds the live run (a rejected or reversed one may be redone).
create unique index pms_apportionment_run_once on pms_apportionment_run (tenant_id, node_id, month) where state in (1, 2);
create index pms_apportionment_run_tenant on pms_apportionment_run (tenant_id, create_time desc);

create table pms_apportionment_line (
  id bigint primary key,
  tenant_id varchar(12) not null,
  run_id bigint not null references pms_apportionment_run (id),
  room_id bigint not null,
  meter_id bigint not null,
  account_id bigint not null,
  -- Floor area in 0.01 m², the room's own usage and its share of the shared usage in 0.01 units.
  floor_area bigint,
  room_usage bigint not null,
  share_usage bigint not null,
  amount bigint not null,
  ledger_id bigint,
  reverse_ledger_id bigint
);
create index pms_apportionment_line_run on pms_apportionment_line (run_id);
