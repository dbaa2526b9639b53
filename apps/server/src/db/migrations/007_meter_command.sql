-- Commands to meters (design.md §5): queued → sent → success | fail | timeout (to be confirmed).
-- Rows are written by operations (switching, account, price and alarm writes, owner-group cuts) and
-- taken by the gateway; a relay, valve or money write is never re-sent blindly, a timeout is
-- settled by reading the meter back.
create table pms_meter_command (
  id bigint primary key,
  tenant_id varchar(12) not null,
  energy_type integer not null check (energy_type in (1, 2)),
  meter_id bigint not null,
  product_code varchar(14) not null,
  command_type varchar(32) not null,
  payload text not null default '{}',
  state varchar(16) not null default 'queued'
    check (state in ('queued', 'sent', 'success', 'fail', 'timeout')),
  -- MSG_RESULT once settled: 1 success, 0 fail, 2 timeout to be confirmed.
  result integer,
  reply text,
  batch_id bigint,
  source varchar(64),
  create_user bigint,
  create_time timestamptz not null default now(),
  sent_time timestamptz,
  done_time timestamptz
);
create index pms_meter_command_queued on pms_meter_command (create_time) where state = 'queued';
create index pms_meter_command_meter on pms_meter_command (tenant_id, meter_id, create_time desc);
create index pms_meter_command_batch on pms_meter_command (batch_id);
