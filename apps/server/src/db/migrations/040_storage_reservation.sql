-- Uploads in flight: each holds, until its attachment row is written, the most bytes it can store,
-- so that uploads racing at a tenant's storage quota cannot pass it together. A reservation left
-- behind by a crashed server stops counting once it expires.
create table storage_reservation (
  id bigint primary key,
  tenant_id varchar(12) not null,
  bytes bigint not null check (bytes >= 0),
  expires_at timestamptz not null
);
create index storage_reservation_tenant on storage_reservation (tenant_id, expires_at);
