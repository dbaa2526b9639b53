-- NB-IoT meters reach Meterline only through their operator's platform (CTWing / AEP, OneNET,
-- Huawei IoTDA): the platform pushes reports to a webhook and holds a command until the meter wakes.
-- One configuration per tenant and platform; its secrets are stored encrypted (crud/field-cipher.ts).
create table pms_iot_platform (
  id bigint primary key,
  tenant_id varchar(12) not null,
  platform varchar(8) not null check (platform in ('ctwing', 'onenet', 'iotda')),
  -- The platform's API address (its doubles' address in tests and the demo).
  base_url varchar(255) not null,
  -- CTWing: the application's key; OneNET: the product id; IoTDA: the project id.
  app_id varchar(128) not null,
  -- CTWing: the application's secret; OneNET: the product's access key; IoTDA: the IAM password.
  app_secret text not null,
  -- CTWing: MasterKey of the product; OneNET: the push token; IoTDA: the token in the push URL.
  push_token text not null,
  -- CTWing: product id; OneNET: unused; IoTDA: IAM "user@domain".
  account varchar(128),
  -- IoTDA: the IAM endpoint that issues its API tokens.
  auth_url varchar(255),
  create_time timestamptz not null default now(),
  update_time timestamptz,
  unique (tenant_id, platform)
);

-- The meter's device on its platform. A meter has one; a device id names one meter per platform.
create table pms_iot_device (
  id bigint primary key,
  tenant_id varchar(12) not null,
  energy_type integer not null check (energy_type in (1, 2)),
  meter_id bigint not null,
  platform varchar(8) not null check (platform in ('ctwing', 'onenet', 'iotda')),
  device_id varchar(128) not null,
  -- When the meter last reported and the gap between its last two reports: its expected wake.
  last_report_time timestamptz,
  report_interval_seconds integer,
  create_time timestamptz not null default now(),
  unique (tenant_id, energy_type, meter_id),
  unique (tenant_id, platform, device_id)
);

-- Every accepted push, once: a platform retries a push it thinks failed, and the same report or
-- state change must not be applied twice.
create table pms_iot_push (
  id bigint primary key,
  tenant_id varchar(12) not null,
  platform varchar(8) not null,
  push_key varchar(200) not null,
  kind varchar(16) not null,
  device_id varchar(128),
  body text not null,
  receive_time timestamptz not null default now(),
  unique (tenant_id, platform, push_key)
);

-- A command through a platform keeps the queue's states (sent while it waits at the platform, so
-- the arrears rules queue no second supply command) and the platform's own state beside them.
alter table pms_meter_command add column platform varchar(8);
alter table pms_meter_command add column platform_command_id varchar(128);
alter table pms_meter_command add column platform_state varchar(12)
  check (platform_state in ('queued', 'sent', 'delivered', 'executed', 'failed', 'expired'));
create unique index pms_meter_command_platform_id on pms_meter_command (platform, platform_command_id)
  where platform_command_id is not null;
