-- Tenant-level parameters: each tenant may set its own value; the platform's row is the default.
update sys_param set platform_wide = 0 where param_key in ('account.initPassword') and tenant_id = '000000';
