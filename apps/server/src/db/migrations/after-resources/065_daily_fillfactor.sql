-- A day's usage row is rewritten by every read of that day (96 a day at 15 minutes): with room on
-- its page the new version stays there (a HOT update) and none of the table's seven indexes is
-- written again. Months made from now on are created with this room (db/partitions.ts); the months
-- made before are given it here, and their full pages get it as they are vacuumed.
do $$ declare part regclass; begin for part in select i.inhrelid::regclass from pg_inherits i where i.inhparent in (to_regclass('pms_data_daily'), to_regclass('pms_water_data_daily')) loop execute format('alter table %s set (fillfactor = 70)', part); end loop; end $$;
alter table pms_owner set (fillfactor = 50);
alter table pms_account set (fillfactor = 50);
alter table pms_meter_current_data set (fillfactor = 50);
