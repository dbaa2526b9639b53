-- The servers cache what every request reads (token state, role grants, API and data scopes,
-- dictionary labels) and forget it when these tables change. Each change is announced by NOTIFY on
-- the channel meterline_cache to every listening process (delivered at commit), and by a notice of
-- the same table to the writing connection, so the writer forgets before it answers.
-- Statement triggers: one announcement per statement, whatever it touched; NOTIFY folds repeats.
create function meterline_cache_changed() returns trigger language plpgsql as $$ begin perform pg_notify('meterline_cache', tg_table_name); raise notice using message = 'meterline_cache:' || tg_table_name; return null; end $$;

-- Only access tokens are cached, and never before they exist: their revocation and removal count;
-- a refresh token being used (every few minutes per signed-in person) does not.
create function meterline_cache_token_changed() returns trigger language plpgsql as $$ begin if exists (select 1 from changed_tokens where kind = 'access') then perform pg_notify('meterline_cache', tg_table_name); raise notice using message = 'meterline_cache:' || tg_table_name; end if; return null; end $$;
create trigger auth_token_cache_update after update on auth_token referencing old table as changed_tokens for each statement execute function meterline_cache_token_changed();
create trigger auth_token_cache_delete after delete on auth_token referencing old table as changed_tokens for each statement execute function meterline_cache_token_changed();
create trigger auth_token_cache_truncate after truncate on auth_token for each statement execute function meterline_cache_changed();
create trigger sys_user_cache after insert or update or delete or truncate on sys_user for each statement execute function meterline_cache_changed();
create trigger sys_role_cache after insert or update or delete or truncate on sys_role for each statement execute function meterline_cache_changed();
create trigger sys_tenant_cache after insert or update or delete or truncate on sys_tenant for each statement execute function meterline_cache_changed();
create trigger sys_menu_cache after insert or update or delete or truncate on sys_menu for each statement execute function meterline_cache_changed();
create trigger sys_role_menu_cache after insert or update or delete or truncate on sys_role_menu for each statement execute function meterline_cache_changed();
create trigger sys_role_scope_cache after insert or update or delete or truncate on sys_role_scope for each statement execute function meterline_cache_changed();
create trigger sys_scope_api_cache after insert or update or delete or truncate on sys_scope_api for each statement execute function meterline_cache_changed();
create trigger sys_scope_data_cache after insert or update or delete or truncate on sys_scope_data for each statement execute function meterline_cache_changed();
create trigger sys_dict_cache after insert or update or delete or truncate on sys_dict for each statement execute function meterline_cache_changed();
create trigger sys_dict_biz_cache after insert or update or delete or truncate on sys_dict_biz for each statement execute function meterline_cache_changed();
