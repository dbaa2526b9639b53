-- Owner notifications (spec §7 PMS messagequeue and sms): the outgoing queue of SMS to owners whose
-- balance alarm was raised, and the send record gains what the PMS sms screen needs.
--
-- pms_message_queue is the message as the operator sees it (state, attempts, last error, next
-- attempt); the job queue (pg-boss, schema pgboss) only carries the message id and wakes the sender
-- at the right time. MESSAGE_STATE: 1 queued, 2 retrying (the provider failed or timed out),
-- 3 sent, 4 failed (a refusal no retry mends: no phone, no provider; submit queues it again).
create table pms_message_queue (
  id bigint primary key,
  tenant_id varchar(12) not null default '000000',
  owner_id bigint,
  owner_name varchar(64),
  phone varchar(20),
  record_id bigint,
  rule_code varchar(32),
  alarm_level integer,
  -- The owner's local day the alarm was raised on: one message per owner, level and day.
  notify_day date,
  template_params text,
  state integer not null default 1,
  attempts integer not null default 0,
  last_error varchar(500),
  next_attempt_time timestamptz,
  sent_time timestamptz,
  sms_log_id bigint,
  -- The job that will send it next (pg-boss job id), chosen before the job exists so that handing
  -- the message to the queue twice makes one job.
  job_id varchar(36),
  dispatched integer not null default 0,
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now(),
  is_deleted integer not null default 0
);
-- At most one message per owner, alarm level and day, removed ones included (removing a message
-- does not let the same alarm send again that day).
create unique index pms_message_queue_once on pms_message_queue (tenant_id, owner_id, alarm_level, notify_day);
create index pms_message_queue_tenant on pms_message_queue (tenant_id, create_time desc);
create index pms_message_queue_undispatched on pms_message_queue (id) where dispatched = 0;

alter table sms_send_log add column message_id bigint;
alter table sms_send_log add column is_deleted integer not null default 0;
alter table sms_send_log add column remark varchar(255);
alter table sms_send_log add column update_time timestamptz not null default now();
