-- Rows every reading or charge rewrites (the meters' online and supply state, their latest values,
-- the priced accounts and their owners' balances) get room on their page for the new version, so
-- the update stays on the page (a HOT update) and touches none of the table's indexes: an owner's
-- three trigram search indexes would otherwise be rewritten by every charge of a batch.
-- Pages written from now on keep the room; existing full pages get it as they are vacuumed.
alter table pms_owner set (fillfactor = 80);
alter table pms_account set (fillfactor = 80);
alter table pms_meter set (fillfactor = 80);
alter table pms_water set (fillfactor = 80);
alter table pms_meter_current_data set (fillfactor = 70);
