-- The global search (modules/pms/search) matches every typed word anywhere in a row's text: a
-- "contains" match no btree answers. Trigram indexes do, on exactly the expressions the search
-- filters by (keep the two in step: global-search.ts). pg_trgm ships with PostgreSQL and PGlite.
create extension if not exists pg_trgm;

create index if not exists pms_room_search on pms_room
  using gin ((room_name || ' ' || coalesce(room_code, '')) gin_trgm_ops);
create index if not exists pms_owner_search on pms_owner
  using gin ((owner_name || ' ' || coalesce(owner_code, '') || ' ' || coalesce(phone, '') || ' ' || coalesce(id_card, '')) gin_trgm_ops);
create index if not exists pms_meter_search on pms_meter
  using gin ((product_code || ' ' || coalesce(meter_name, '')) gin_trgm_ops);
create index if not exists pms_water_search on pms_water
  using gin ((product_code || ' ' || coalesce(meter_name, '')) gin_trgm_ops);
create index if not exists pms_collector_search on pms_collector
  using gin ((coalesce(collector_code, '') || ' ' || coalesce(collector_name, '')) gin_trgm_ops);
