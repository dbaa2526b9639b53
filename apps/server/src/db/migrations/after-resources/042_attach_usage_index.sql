-- A tenant's storage use (number and bytes of its attachments) is counted before every upload:
-- from this index alone, without reading the rows.
create index if not exists blade_attach_tenant_size on blade_attach (tenant_id, attach_size);
