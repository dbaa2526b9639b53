-- Workflow timers (boundary timers that escalate an untouched task, intermediate timer events that
-- wait): the engine never keeps a timeout in memory; each timer the engine waits on is a row here,
-- and the timer runner of any server process fires the due ones under the instance's row lock.
create table wf_timer (
  instance_id bigint not null references wf_instance (id) on delete cascade,
  tenant_id varchar(12) not null,
  element_id varchar(128) not null,
  due_time timestamptz not null,
  -- A step that failed (the escalation finds no one, say) is tried again later, the reason kept.
  attempts integer not null default 0,
  last_error varchar(500),
  create_time timestamptz not null default now(),
  primary key (instance_id, element_id)
);
create index wf_timer_due on wf_timer (due_time);

-- Money that leaves an account above the tenant's approval threshold waits for a second person:
-- state 3 waits for approval (nothing booked), 4 was rejected (nothing booked, the reason kept).
alter table pms_recharge add column approval_instance_id bigint;
alter table pms_recharge add column approval_note varchar(1000);
create index pms_recharge_approval on pms_recharge (approval_instance_id) where approval_instance_id is not null;

-- A process another module starts for its own records (the money approval) is not offered in the
-- start list and cannot be started by hand.
alter table wf_definition add column started_by_system boolean not null default false;
