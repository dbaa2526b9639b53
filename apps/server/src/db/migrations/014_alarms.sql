-- Alarms (spec §3 alarm message, §4 alarm states and ignores): a check record per meter and rule
-- while its condition holds, the history of its states, and the operators' ignores. The rules and
-- their thresholds are the plain resource pms_alarm; balance levels come from the alarm schemes.
create table pms_check_record (
  id bigint primary key,
  tenant_id varchar(12) not null,
  energy_type integer not null check (energy_type in (1, 2)),
  meter_id bigint not null,
  product_code varchar(32) not null default '',
  owner_id bigint,
  -- The rule (dictionary alarm_rule) and the name the operator read when it was raised.
  rule_code varchar(32) not null,
  check_rule_name varchar(64) not null,
  -- ALARM_LEVEL for balance rules (1 low, 2 severely low, 3 arrears), 0 for meter checks.
  alarm_level integer not null default 0,
  -- ALARM_STATUS: 1 alarming, 2 restored (the condition cleared by itself), 3 closed by an operator.
  alarm_status integer not null default 1 check (alarm_status in (1, 2, 3)),
  content varchar(255) not null default '',
  create_time timestamptz not null,
  last_check_time timestamptz not null,
  restore_time timestamptz,
  close_time timestamptz,
  is_deleted integer not null default 0
);
-- At most one alarming record per meter and rule: a second raise finds the first.
create unique index pms_check_record_open on pms_check_record (tenant_id, energy_type, meter_id, rule_code)
  where alarm_status = 1 and is_deleted = 0;
create index pms_check_record_time on pms_check_record (tenant_id, create_time desc);

-- Every change of a record's state, with the time and why (normal → alarming → restored / closed).
create table pms_check_record_history (
  id bigint primary key,
  tenant_id varchar(12) not null,
  record_id bigint not null,
  from_status integer not null,
  to_status integer not null,
  cause varchar(255) not null default '',
  create_time timestamptz not null
);
create index pms_check_record_history_record on pms_check_record_history (record_id, create_time);

-- An operator's ignore of a meter's rule. IGNORE_TYPE: 1 this time (days 0: until the record it
-- names restores or closes), 2 for a number of days (until ignore_until), 3 permanently (days 9999,
-- a reason required).
create table pms_check_ignore (
  id bigint primary key,
  tenant_id varchar(12) not null,
  energy_type integer not null,
  meter_id bigint not null,
  record_id bigint not null,
  rule_code varchar(32) not null,
  ignore_type integer not null check (ignore_type in (1, 2, 3)),
  days integer not null,
  ignore_until timestamptz,
  reason varchar(255) not null default '',
  create_user bigint,
  creator varchar(64) not null default '',
  create_time timestamptz not null default now(),
  is_deleted integer not null default 0
);
create index pms_check_ignore_meter on pms_check_ignore (tenant_id, meter_id, rule_code) where is_deleted = 0;
