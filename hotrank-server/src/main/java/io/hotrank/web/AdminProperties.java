package io.hotrank.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The admin endpoints' credentials, under {@code hotrank.admin.*}.
 *
 * @param token the bearer token {@code /api/v1/admin/**} and {@code /actuator/metrics} require;
 *     when blank, one is generated once and stored in {@code <hotrank.data-dir>/admin-token},
 *     readable by its owner only; the log names that file, never the token
 */
@ConfigurationProperties("hotrank.admin")
record AdminProperties(@DefaultValue("") String token) {}
