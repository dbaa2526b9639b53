-- Batch jobs (design.md §5, commands): a batch on meters is one durable job of up to 10,000
-- meters. The job's items say what each meter gets; a runner in the server turns pending items
-- into queued commands a window at a time (the command table stays the queue), writing the
-- command's id on the item in the same transaction, so a restart never queues a meter twice and a
-- cancel stops every meter whose commands are not on the wire yet.
create table pms_batch_job (
  id bigint primary key,
  tenant_id varchar(12) not null,
  kind varchar(32) not null,
  state varchar(16) not null default 'running' check (state in ('running', 'cancelled', 'done')),
  action text not null default '{}',
  params text not null default '{}',
  source varchar(64) not null default '',
  retry_of bigint,
  -- Meters named in the request but left out (unknown, outside the scope, not writable), with why.
  skipped text not null default '[]',
  create_user bigint,
  create_time timestamptz not null default now(),
  finish_time timestamptz
);
create index pms_batch_job_tenant on pms_batch_job (tenant_id, create_time desc);
create index pms_batch_job_running on pms_batch_job (create_time) where state = 'running';

-- One meter of a job: its planned commands (JSON array of {commandType, payload}) until queued,
-- then the state that follows its commands (pending → queued → sent → success | fail | timeout).
create table pms_batch_job_item (
  job_id bigint not null,
  seq integer not null,
  tenant_id varchar(12) not null,
  energy_type integer not null check (energy_type in (1, 2)),
  meter_id bigint not null,
  product_code varchar(14) not null,
  state varchar(16) not null default 'pending'
    check (state in ('pending', 'queued', 'sent', 'success', 'fail', 'timeout', 'cancelled', 'skipped')),
  reason varchar(255) not null default '',
  commands text not null default '[]',
  command_id bigint,
  update_time timestamptz not null default now(),
  primary key (job_id, seq)
);
create index pms_batch_job_item_state on pms_batch_job_item (job_id, state);
create index pms_batch_job_item_meter on pms_batch_job_item (job_id, energy_type, meter_id);
-- A meter still waiting in a running job is busy for another batch of the same kind.
create index pms_batch_job_item_pending on pms_batch_job_item (tenant_id, energy_type, meter_id)
  where state = 'pending';

-- A cancelled job's commands that were still queued are 'cancelled': no gateway claims them.
alter table pms_meter_command drop constraint if exists pms_meter_command_state_check;
alter table pms_meter_command add constraint pms_meter_command_state_check
  check (state in ('queued', 'sent', 'success', 'fail', 'timeout', 'cancelled'));
-- The commands of one meter in one job, looked up each time one of them settles.
create index pms_meter_command_batch_meter on pms_meter_command (batch_id, energy_type, meter_id);
