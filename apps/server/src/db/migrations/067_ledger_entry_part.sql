-- A charge priced whole in one tier or band keeps that part on its own entry (the part's usage is
-- the entry's usage, its charge the entry's amount) instead of in a row of pms_ledger_part, which
-- keeps the parts of charges split in several. Pricing books a charge for every reading of every
-- priced meter, nearly all of them in one part, and that second row was a fifth of what booking a
-- wave of them cost the database (bench/money-ingest.ts). Entries booked before keep their rows.
alter table pms_ledger add column part varchar(8);
comment on column pms_ledger.part is 'The one tier or band a usage charge was priced in whole (see pms_ledger_part for charges in several parts)';
