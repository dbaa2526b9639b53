-- Billed money by ladder tier and time-of-use band: each usage charge of the ledger (type 6) is
-- split into the parts it was priced in, with each part's usage (0.01 units) and fen. The parts of
-- an entry add up to its amount exactly (pricing writes them with the entry), so a statement shows
-- tiers and bands without re-pricing anything. A charge booked without parts is shown as one
-- unsplit line. Like the ledger, parts are only ever added.
create table pms_ledger_part (
  ledger_id bigint not null,
  tenant_id varchar(12) not null,
  account_id bigint not null,
  -- "tier1" … for a ladder, "tip" "peak" "peace" "low" for time of use, "flat" for one price.
  part varchar(8) not null,
  usage bigint not null,
  charge bigint not null,
  -- The entry's own time, so a month's parts are read by the same range as its entries.
  create_time timestamptz not null,
  primary key (ledger_id, part)
);
create index pms_ledger_part_account on pms_ledger_part (account_id, create_time);
create trigger pms_ledger_part_no_change before update or delete on pms_ledger_part for each row execute function pms_ledger_append_only();
