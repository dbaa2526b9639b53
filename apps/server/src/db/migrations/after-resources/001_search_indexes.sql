-- The global search (modules/pms/global-search.ts) matches every typed word anywhere in a row's text: a
-- "contains" match no btree answers. Trigram indexes do, on exactly the expressions the search
-- filters by, lower-cased (keep the two in step: global-search.ts). pg_trgm ships with PostgreSQL and PGlite.
-- fastupdate off: new rows go straight into the index instead of a pending list that every search
-- reads through until a vacuum merges it (and PGlite never runs autovacuum); registry writes are
-- few, searches many.
create extension if not exists pg_trgm;

create index if not exists pms_room_search on pms_room
  using gin (lower(room_name || ' ' || coalesce(room_code, '')) gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_owner_search on pms_owner
  using gin (lower(owner_name || ' ' || coalesce(owner_code, '') || ' ' || coalesce(phone, '') || ' ' || coalesce(id_card, '')) gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_meter_search on pms_meter
  using gin (lower(product_code || ' ' || coalesce(meter_name, '')) gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_water_search on pms_water
  using gin (lower(product_code || ' ' || coalesce(meter_name, '')) gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_collector_search on pms_collector
  using gin (lower(coalesce(collector_code, '') || ' ' || coalesce(collector_name, '')) gin_trgm_ops) with (fastupdate = off);
