-- Line-loss alarms and each electric meter's peak power per day (issue 36).
--
-- A metering node's day whose loss % leaves its learned band (or falls below zero: a mapping or
-- meter fault) raises a check record on the node's master meter. Such a record is about one node
-- and one past day, not a condition that holds now: several of a meter's days may be alarming at
-- once, and a sweep run again must never raise a day twice, even after an operator closed or
-- removed its record. Meter rules keep their one open record per meter and rule.
alter table pms_check_record add column node_id bigint;
alter table pms_check_record add column alarm_day date;
drop index pms_check_record_open;
create unique index pms_check_record_open on pms_check_record (tenant_id, energy_type, meter_id, rule_code)
  where alarm_status = 1 and is_deleted = 0 and alarm_day is null;
create unique index pms_check_record_node_day on pms_check_record (tenant_id, node_id, alarm_day, rule_code)
  where alarm_day is not null;

-- The highest total active power (kW) an electric meter reported on a local day, kept beside its
-- daily usage by the readings that write it: the reading log keeps registers only, so this is what
-- shows a load on a day whose register stood still.
create table pms_data_day_power (
  tenant_id varchar(12) not null,
  meter_id bigint not null,
  day_date date not null,
  max_power numeric(12, 4) not null,
  update_time timestamptz not null,
  primary key (tenant_id, meter_id, day_date)
);
