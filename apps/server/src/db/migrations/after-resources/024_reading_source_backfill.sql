-- Reading logs written before reads had a source and a void mark carry neither: every one of them
-- came from the gateway (hand-entered reads always had both) and none was voided. Here (after the
-- resource tables, which add these columns) they get those values, and new rows get them by default.
-- One statement per table: the whole migration is one transaction that runs before the server
-- serves, so batches inside it would bound neither its locks nor its length; each update touches
-- only the old rows, and the defaults are catalogue changes that rewrite nothing.
alter table pms_data_read alter column source set default 'gateway';
alter table pms_data_read alter column voided set default 0;
update pms_data_read set source = coalesce(nullif(source, ''), 'gateway'), voided = coalesce(voided, 0)
 where source is null or source = '' or voided is null;
alter table pms_data_read alter column source set not null;
alter table pms_data_read alter column voided set not null;
alter table pms_water_data_read alter column source set default 'gateway';
alter table pms_water_data_read alter column voided set default 0;
update pms_water_data_read set source = coalesce(nullif(source, ''), 'gateway'), voided = coalesce(voided, 0)
 where source is null or source = '' or voided is null;
alter table pms_water_data_read alter column source set not null;
alter table pms_water_data_read alter column voided set not null;
-- The history tables hold the same rows moved by the retention sweep, as they were.
alter table pms_data_read_his alter column source set default 'gateway';
alter table pms_data_read_his alter column voided set default 0;
update pms_data_read_his set source = coalesce(nullif(source, ''), 'gateway'), voided = coalesce(voided, 0)
 where source is null or source = '' or voided is null;
alter table pms_data_read_his alter column source set not null;
alter table pms_data_read_his alter column voided set not null;
alter table pms_water_data_read_his alter column source set default 'gateway';
alter table pms_water_data_read_his alter column voided set default 0;
update pms_water_data_read_his set source = coalesce(nullif(source, ''), 'gateway'), voided = coalesce(voided, 0)
 where source is null or source = '' or voided is null;
alter table pms_water_data_read_his alter column source set not null;
alter table pms_water_data_read_his alter column voided set not null;
