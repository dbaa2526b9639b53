-- A gateway claims queued commands before sending them (apps/gateway ports.ts CommandSource): the
-- claim names its process and lapses, so a dead gateway's commands return to the queue. The
-- request frame and the evidence of each settled state are kept with the command.
alter table pms_meter_command add column claimed_by varchar(128);
alter table pms_meter_command add column claimed_until timestamptz;
alter table pms_meter_command add column request text;
alter table pms_meter_command add column evidence text;
alter table pms_meter_command add column expires_at timestamptz;
