-- The gateways keep where each meter belongs (tenant, kind, room, meter number, priced or not) in
-- memory (modules/metering/meter-places.ts) and forget it when one of these changes is announced on
-- the shared caches' channel (002_cache_invalidation). Only the columns a place is made of count:
-- the writes every reading makes (online and supply state, balances, registers) announce nothing.
create trigger pms_meter_place_cache after insert or delete or truncate or update of id, tenant_id, product_code, is_deleted on pms_meter for each statement execute function meterline_cache_changed();
create trigger pms_water_place_cache after insert or delete or truncate or update of id, tenant_id, product_code, is_deleted on pms_water for each statement execute function meterline_cache_changed();
create trigger pms_room_meter_place_cache after insert or update or delete or truncate on pms_room_meter for each statement execute function meterline_cache_changed();
create trigger pms_account_place_cache after insert or delete or truncate or update of tenant_id, energy_type, meter_id, status, control_status on pms_account for each statement execute function meterline_cache_changed();
