-- The registry screens search their name, code and phone columns by "contains" (filters.ts: `col::text
-- ilike '%v%'`), which no btree answers: on 50,000 owners one such search read the whole table (36 ms
-- on the embedded database, where every other console call waits behind it). A trigram index per
-- searched column answers it from the index (2 ms). Keep in step with the resources' `search: "like"`
-- fields (test: registry-contains-indexes). fastupdate off for the reason given in 001.
create index if not exists pms_area_name_trgm on pms_area using gin (area_name gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_area_code_trgm on pms_area using gin (area_code gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_room_name_trgm on pms_room using gin (room_name gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_room_code_trgm on pms_room using gin (room_code gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_owner_name_trgm on pms_owner using gin (owner_name gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_owner_code_trgm on pms_owner using gin (owner_code gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_owner_phone_trgm on pms_owner using gin (phone gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_meter_name_trgm on pms_meter using gin (meter_name gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_meter_code_trgm on pms_meter using gin (product_code gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_water_name_trgm on pms_water using gin (meter_name gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_water_code_trgm on pms_water using gin (product_code gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_collector_name_trgm on pms_collector using gin (collector_name gin_trgm_ops) with (fastupdate = off);
create index if not exists pms_collector_code_trgm on pms_collector using gin (collector_code gin_trgm_ops) with (fastupdate = off);
