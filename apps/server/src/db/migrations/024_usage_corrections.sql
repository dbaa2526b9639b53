-- Usage corrections: when an operator voids a reading or enters one by hand on a meter whose balance
-- the server keeps, the span is re-priced and the difference is booked as one ledger entry of type
-- 9 (usage correction, plus or minus), naming the reading it came from. Past entries are never
-- changed. NOT VALID then VALIDATE: the new check only widens the old one, so existing rows pass.
alter table pms_ledger drop constraint pms_ledger_entry_type_check;
alter table pms_ledger add constraint pms_ledger_entry_type_check check (entry_type between 1 and 9) not valid;
alter table pms_ledger validate constraint pms_ledger_entry_type_check;
alter table pms_ledger add column reading_id bigint;
create index pms_ledger_reading on pms_ledger (reading_id) where reading_id is not null;
-- The daily close keeps a day's usage corrections apart from money in and out, so the statement
-- shows them as what they are: signed, positive when usage charged before was given back.
alter table pms_account_day add column correction bigint not null default 0;
-- Where pricing of the account began: the reading whose registers the opening took (usage up to it
-- was never charged). Accounts opened before this column fall back to their opening time.
alter table pms_account add column priced_from timestamptz;
