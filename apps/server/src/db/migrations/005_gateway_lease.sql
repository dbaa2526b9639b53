-- Which gateway process owns which collector (DTU, concentrator or 4G meter), so several gateway
-- processes can share one fleet (design.md §2). A lease is valid until expires_at, by the
-- database clock; its owner renews it well before then, and anyone may take an expired one.
create table gateway_lease (
  collector_id text primary key,
  owner text not null,
  expires_at timestamptz not null
);

create index gateway_lease_owner_idx on gateway_lease (owner);
