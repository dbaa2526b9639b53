-- Process models (spec §7 Workflow: model list, remove, deploy): BPMN XML drawn in the console's
-- designer and kept per tenant until deployed. A deployment copies the XML into wf_definition, so
-- editing or removing a model never changes what already runs.
create table wf_model (
  id bigint primary key,
  tenant_id varchar(12) not null,
  -- The executable process's id in the XML: the key its deployments are versioned under.
  model_key varchar(128) not null,
  name varchar(255) not null,
  category varchar(64) not null default '',
  description varchar(1000) not null default '',
  bpmn_xml text not null,
  -- Counts the saves, as the family's model version does.
  version integer not null default 1,
  create_user bigint,
  create_time timestamptz not null default now(),
  update_user bigint,
  update_time timestamptz not null default now()
);
-- One model per process key in a tenant: two would deploy into one another's versions.
create unique index wf_model_key on wf_model (tenant_id, model_key);
create index wf_model_recent on wf_model (tenant_id, update_time desc);
