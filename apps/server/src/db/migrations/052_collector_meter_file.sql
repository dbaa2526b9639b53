-- A concentrator's meter file (Q/GDW 1376.1 AFN 04 F10) as the gateway last wrote or read it back,
-- one row per collector code, so the console can show which meters the concentrator has on file
-- under which measurement point. The gateway names collectors by their code, as it does for presence.
create table pms_collector_meter_file (
  collector_code varchar(64) primary key,
  meter_file jsonb not null,
  file_time timestamptz not null
);
