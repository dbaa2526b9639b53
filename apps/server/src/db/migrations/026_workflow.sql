-- Workflow (spec §4, §7 Workflow; contract §13): BPMN 2.0 definitions run by the bpmn-engine
-- library. The engine's state of each instance is kept here between steps, so any server process
-- can take the next step and a restart loses nothing; the work lists read the task rows only.

-- One upload (or shipped process) deployed for one tenant; tenant_id '' is a common deployment
-- (contract §13.1 mode 1), started by any tenant, each instance still belonging to its starter's.
create table wf_deployment (
  id bigint primary key,
  tenant_id varchar(12) not null default '',
  name varchar(255) not null,
  category varchar(64) not null default '',
  deploy_user bigint,
  deploy_time timestamptz not null default now()
);
create index wf_deployment_tenant on wf_deployment (tenant_id);

-- A process of a deployment: id `<key>:<version>:<deployment id>` as the family names it.
create table wf_definition (
  id varchar(200) primary key,
  deployment_id bigint not null references wf_deployment (id) on delete cascade,
  tenant_id varchar(12) not null default '',
  def_key varchar(128) not null,
  version integer not null,
  name varchar(255) not null,
  category varchar(64) not null default '',
  description varchar(1000) not null default '',
  resource_name varchar(255) not null,
  suspended boolean not null default false,
  bpmn_xml text not null,
  -- The user tasks as read from the XML at deployment (assignee, candidates), by element id.
  user_tasks jsonb not null default '{}',
  unique (tenant_id, def_key, version)
);
create index wf_definition_key on wf_definition (tenant_id, def_key, version desc);

create table wf_instance (
  id bigint primary key,
  tenant_id varchar(12) not null,
  definition_id varchar(200) not null references wf_definition (id) on delete cascade,
  business_key varchar(255) not null default '',
  start_user bigint not null,
  start_time timestamptz not null default now(),
  end_time timestamptz,
  -- running, finished, deleted
  status varchar(16) not null default 'running' check (status in ('running', 'finished', 'deleted')),
  delete_reason varchar(500),
  variables jsonb not null default '{}',
  -- engine.getState() after the last step; null once the instance has ended.
  engine_state jsonb
);
create index wf_instance_running on wf_instance (tenant_id, start_time desc) where status = 'running';
create index wf_instance_starter on wf_instance (tenant_id, start_user, start_time desc);
create index wf_instance_definition on wf_instance (definition_id) where status = 'running';

-- One row per user task the engine waited on. assignee null = waiting to be claimed by a
-- candidate user or a holder of a candidate role (alias).
create table wf_task (
  id bigint primary key,
  tenant_id varchar(12) not null,
  instance_id bigint not null references wf_instance (id) on delete cascade,
  task_key varchar(128) not null,
  name varchar(255) not null default '',
  assignee bigint,
  candidate_users bigint[] not null default '{}',
  candidate_groups varchar(64)[] not null default '{}',
  -- open, completed, cancelled (the instance was deleted or ended around it)
  state varchar(16) not null default 'open' check (state in ('open', 'completed', 'cancelled')),
  create_time timestamptz not null default now(),
  claim_time timestamptz,
  end_time timestamptz,
  comment varchar(1000),
  pass boolean
);
create index wf_task_todo on wf_task (tenant_id, assignee, create_time desc) where state = 'open';
create index wf_task_claim_users on wf_task using gin (candidate_users) where state = 'open' and assignee is null;
create index wf_task_claim_groups on wf_task using gin (candidate_groups) where state = 'open' and assignee is null;
create index wf_task_done on wf_task (tenant_id, assignee, end_time desc) where state = 'completed';
create index wf_task_instance on wf_task (instance_id);

-- The steps of an instance as history-flow-list shows them: start, each completed user task, end.
create table wf_history (
  id bigint primary key,
  tenant_id varchar(12) not null,
  instance_id bigint not null references wf_instance (id) on delete cascade,
  activity_id varchar(128) not null,
  activity_name varchar(255) not null default '',
  activity_type varchar(32) not null,
  task_id bigint,
  user_id bigint,
  start_time timestamptz not null,
  end_time timestamptz,
  comment varchar(1000)
);
create index wf_history_instance on wf_history (instance_id, start_time);

-- The leave requests (contract §13.5), with the tenant the family's table lacks.
create table blade_process_leave (
  id bigint primary key,
  tenant_id varchar(12) not null,
  process_definition_id varchar(200) not null,
  process_instance_id bigint,
  leave_type integer not null default 1,
  start_time timestamptz not null,
  end_time timestamptz not null,
  days integer not null,
  reason varchar(500) not null,
  task_user bigint,
  apply_time timestamptz not null default now(),
  create_user bigint, create_time timestamptz not null default now(),
  update_user bigint, update_time timestamptz not null default now(),
  status integer not null default 1, is_deleted integer not null default 0
);
create index blade_process_leave_tenant on blade_process_leave (tenant_id, create_user);
