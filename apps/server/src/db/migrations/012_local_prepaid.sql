-- Local-prepaid meters (CONTROL_STATUS 0) keep the balance themselves; purchases are written to them
-- with a purchase count the meter accepts only as its own count + 1 (the gateway's recharge
-- convention). The server remembers the count each meter last showed, from its polls and from the
-- purchases it confirmed, so the next purchase carries the right one.
create table pms_meter_purchase_count (
  meter_id bigint primary key,
  tenant_id varchar(12) not null,
  purchase_count integer not null check (purchase_count >= 0),
  -- When the meter showed it (a poll) or confirmed it (a purchase): older news never overwrites newer.
  known_time timestamptz not null
);

-- The purchase write a local-prepaid recharge waits for (pms_meter_command); null for booked-at-once ones.
alter table pms_recharge add column command_id bigint;
create index pms_recharge_command on pms_recharge (command_id) where command_id is not null;
