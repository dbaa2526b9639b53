-- Suspects (窃电与漏水, issue 36 item 4): what the detectors found per meter or node, ranked, with
-- the evidence an inspector acts on and the inspector's verdict. One row per subject and kind: a
-- sweep refreshes the figures and keeps the state and reason a person gave it.
create table pms_suspect (
  id bigint primary key,
  tenant_id varchar(12) not null,
  energy_type integer not null check (energy_type in (1, 2)),
  -- 'meter' (an electric or water meter's id) or 'node' (a metering node's id).
  subject_type varchar(8) not null check (subject_type in ('meter', 'node')),
  subject_id bigint not null,
  kind varchar(32) not null,
  -- The detector's own 0..1 score, and the subject's combined rank after past verdicts.
  score double precision not null,
  rank_score double precision not null,
  evidence_from timestamptz not null,
  evidence_to timestamptz not null,
  figures jsonb not null,
  state varchar(12) not null default 'new' check (state in ('new', 'visiting', 'confirmed', 'dismissed')),
  reason varchar(255),
  -- When the last sweep still found it: a suspicion the sweep no longer finds keeps its row.
  seen_time timestamptz not null,
  update_user varchar(64),
  update_time timestamptz not null default now()
);
create unique index pms_suspect_subject_kind on pms_suspect (tenant_id, subject_type, subject_id, kind);
create index pms_suspect_rank on pms_suspect (tenant_id, rank_score desc, id);

-- Which tenant's daily sweep ran for which local day: the first process to insert the row runs it.
create table pms_suspect_sweep (
  tenant_id varchar(12) not null,
  sweep_day date not null,
  create_time timestamptz not null default now(),
  primary key (tenant_id, sweep_day)
);
