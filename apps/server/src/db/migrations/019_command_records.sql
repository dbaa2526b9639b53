-- Operation records (spec §7 dataswitch, datawriteprice, datawritealarm, message, metercommand) are
-- views of the command table, not copies. A settled command the operator removes is hidden from
-- the lists and kept for audit, with who removed it and when; the operator may add a remark.
alter table pms_meter_command add column is_deleted integer not null default 0;
alter table pms_meter_command add column remark varchar(255);
alter table pms_meter_command add column remove_user bigint;
alter table pms_meter_command add column remove_time timestamptz;
