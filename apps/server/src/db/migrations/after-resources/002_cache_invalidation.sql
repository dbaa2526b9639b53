-- The servers cache what every request reads (token state, role grants, API and data scopes,
-- dictionary labels) and forget it when these tables change. Each change is announced by NOTIFY on
-- the channel meterline_cache to every listening process (delivered at commit), and by a notice of
-- the same table to the writing connection, so the writer forgets before it answers.
-- Statement triggers: one announcement per statement, whatever it touched; NOTIFY folds repeats.
create function meterline_cache_changed() returns trigger language plpgsql as $$ begin perform pg_notify('meterline_cache', tg_table_name); raise notice using message = 'meterline_cache:' || tg_table_name; return null; end $$;

-- New tokens are never cached before they exist: only revocation and removal count.
create trigger auth_token_cache after update or delete or truncate on auth_token for each statement execute function meterline_cache_changed();
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
