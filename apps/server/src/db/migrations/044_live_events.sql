-- Open console pages follow a meter's supply, an account's balance and a command's progress without
-- reloading. The database announces those changes on the change channel the caches already follow
-- (meterline_cache, after-resources/002), as 'live:' messages the caches ignore, so every server
-- process hears every process's commits (and the gateways' too) at commit time. A message names
-- the tenant, the kind and the meters concerned (only ids: a page reads what changed through its own
-- permission-checked API); 'm' is null when one statement touched too many meters to name.
-- (Migrations are split at a semicolon ending a line: a function body ends its lines otherwise.)
create function meterline_live_message(tenant varchar, kind text, meters json, meter_count bigint)
  returns text language sql immutable as $$
  select 'live:' || json_build_object('t', tenant, 'k', kind, 'm', case when meter_count <= 200 then meters end)::text
$$;

-- A command queued or moving on (sent, success, fail, timeout); a relay or valve command that
-- succeeded is also the meter's new supply state (command-source.db.ts applies it in the same commit).
-- Only a change of state is progress: a gateway claiming or releasing a command is not.
create function meterline_live_command_kinds(state varchar, command_type varchar) returns setof text
  language sql immutable as $$
  select 'command' union all select 'supply' where state = 'success' and command_type in ('switch', 'relay', 'valve')
$$;
create function meterline_live_commands_queued() returns trigger language plpgsql as $$
begin
  perform pg_notify('meterline_cache', meterline_live_message(x.tenant_id, x.kind, x.meters, x.meter_count))
     from (select c.tenant_id, k.kind, count(distinct c.meter_id) as meter_count, json_agg(distinct c.meter_id::text) as meters
             from live_commands c cross join lateral meterline_live_command_kinds(c.state, c.command_type) k(kind)
            group by c.tenant_id, k.kind) x; return null; end $$;
create function meterline_live_commands_moved() returns trigger language plpgsql as $$
begin
  perform pg_notify('meterline_cache', meterline_live_message(x.tenant_id, x.kind, x.meters, x.meter_count))
     from (select c.tenant_id, k.kind, count(distinct c.meter_id) as meter_count, json_agg(distinct c.meter_id::text) as meters
             from live_commands c join live_commands_before o on o.id = c.id and o.state is distinct from c.state
             cross join lateral meterline_live_command_kinds(c.state, c.command_type) k(kind)
            group by c.tenant_id, k.kind) x; return null; end $$;
create trigger pms_meter_command_live_insert after insert on pms_meter_command
  referencing new table as live_commands for each statement execute function meterline_live_commands_queued();
create trigger pms_meter_command_live_update after update on pms_meter_command
  referencing old table as live_commands_before new table as live_commands
  for each statement execute function meterline_live_commands_moved();

-- An account's balance moved (any ledger entry), or an account was opened or closed.
create function meterline_live_accounts_opened() returns trigger language plpgsql as $$
begin
  perform pg_notify('meterline_cache', meterline_live_message(x.tenant_id, 'balance', x.meters, x.meter_count))
     from (select a.tenant_id, count(distinct a.meter_id) as meter_count, json_agg(distinct a.meter_id::text) as meters
             from live_accounts a group by a.tenant_id) x; return null; end $$;
create function meterline_live_accounts_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('meterline_cache', meterline_live_message(x.tenant_id, 'balance', x.meters, x.meter_count))
     from (select n.tenant_id, count(distinct n.meter_id) as meter_count, json_agg(distinct n.meter_id::text) as meters
             from live_accounts n join live_accounts_before o on o.id = n.id
            where n.balance <> o.balance or n.status <> o.status or n.alarm_level <> o.alarm_level
            group by n.tenant_id) x; return null; end $$;
create trigger pms_account_live_insert after insert on pms_account
  referencing new table as live_accounts for each statement execute function meterline_live_accounts_opened();
create trigger pms_account_live_update after update on pms_account
  referencing old table as live_accounts_before new table as live_accounts
  for each statement execute function meterline_live_accounts_changed();

-- A push stream is opened with a ticket, never with the access token in its address (addresses end
-- up in logs and histories): the console asks for a ticket with its token in the header, and the
-- stream redeems it once, within seconds. Only the ticket's hash is kept. Kept in the database so
-- any server process behind the balancer can redeem what another issued.
create table live_ticket (
  ticket_hash varchar(64) primary key,
  tenant_id varchar(12) not null,
  user_id bigint not null,
  -- The access token the ticket was asked with: the stream ends when that token stops being valid.
  jti varchar(64) not null,
  expires_at timestamptz not null
);
create index live_ticket_expires on live_ticket (expires_at);
